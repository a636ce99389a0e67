/** A BSUID or parent BSUID (decisions §28): `<ISO alpha-2>.[ENT.]<1–128 alphanumerics>`. */
export const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;
/** Who a recipient or a webhook's person is: a phone number's digits, a BSUID, or both. */
export interface Person {
  phone?: string;
  user_id?: string;
  username?: string;
}
/** The region a BSUID names (its prefix). */
export const regionOfBsuid = (userId: string) => userId.slice(0, 2);

// What the send and the dispatcher make of a job's recipients: their keys, their repeats, the suppressed. The
// job's shape is ../dispatch-job.ts, on the floor below (the ports and rules carry it).

/** The digits of a recipient's number: `+52 1 555…` and `521555…` are one recipient (decisions §12). */
export const recipientDigits = (to: string) => to.replace(/\D/g, '');
