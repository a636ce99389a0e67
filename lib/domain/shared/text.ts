export const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : '');
