/**
 * Whether a text names an IANA time zone this runtime's Intl knows ("Asia/Kolkata", "UTC"): a zone a client's
 * months may be counted in (decisions §31). A fixed offset ("+05:30"), which newer Intl also takes, is no zone:
 * it keeps no daylight saving, so a month of it would drift from the place's.
 */
export function isTimeZone(text: string) {
  if (!/^[A-Za-z]/.test(text)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: text });
    return true;
  } catch {
    return false;
  }
}
