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
