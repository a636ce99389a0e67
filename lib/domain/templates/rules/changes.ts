/** Change detection: is an edit a real change of the components? */
/**
 * Canonical form for "is this edit a real change?": types and formats upper-cased, strings trimmed,
 * undefined and null dropped, keys sorted. Two component lists are the same when their forms are equal.
 */
export function normalizeComponents(components: unknown): string {
  const canon = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => canon(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined || v === null) continue;
        out[k] = canon(v, k);
      }
      return out;
    }
    if (typeof value === 'string') {
      const trimmed = value.trim();
      return key && ['type', 'format', 'otp_type', 'sub_type'].includes(key) ? trimmed.toUpperCase() : trimmed;
    }
    return value;
  };
  return JSON.stringify(canon(components));
}
