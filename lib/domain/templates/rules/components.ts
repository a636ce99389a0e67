/** The upstream's components are its own shapes; the rules read them loosely. */
export type Component = Record<string, unknown>;

export const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type Category = (typeof CATEGORIES)[number];
