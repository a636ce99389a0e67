/** Text as Meta writes it: enum-like fields compared without regard to case (`marketing` is `MARKETING`). */
export const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : '');
