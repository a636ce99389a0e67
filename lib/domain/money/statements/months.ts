// A statement's months (decisions §27): UTC calendar months, YYYY-MM.

/** A month's first and last day. */
export const daysOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return { from: `${month}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
};

/** The month before. */
export const monthBefore = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
};

/** The instant a month closes (decisions §27): the 3rd day of the next month, 00:00 UTC. */
export const closesAt = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return Date.UTC(y, m, 3);
};

/** `open` until the 3rd of the next month (UTC), `closed` from then on. */
export const statusOf = (month: string, nowMs: number): 'open' | 'closed' => (nowMs >= closesAt(month) ? 'closed' : 'open');
