/**
 * Messages per second a sending number takes (decisions §12, upstream-facts §6.3): Meta's standard level, what
 * the dispatcher paces a number at when nothing else is known or set.
 */
export const STANDARD_MESSAGES_PER_SECOND = 80;
