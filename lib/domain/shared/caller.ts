/** Who is calling, as read from a verified token (decisions §1). How claims become a Caller is lib/auth/. */
export interface Caller {
  sub: string;
  clientId: number;
  permissions: string[];
  campaigns: number[];
  role?: string;
  isBsp: boolean;
}

export const BSP_PERMISSION = 'BSP_CN';
