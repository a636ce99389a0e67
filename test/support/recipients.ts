/**
 * Recipients of the demo's `track_order` template (one header, two body and two button values): the large send
 * issue 10 sizes, shared by the send tests and `npm run bench`. 10,000 of them are about 1.4 MB of JSON.
 */
export const trackOrderRecipients = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    to: `5215${String(i).padStart(8, '0')}`,
    params: {
      header: [`O-${i}`],
      body: [`Customer number ${i}`, `ORD-${String(i).padStart(10, '0')}`],
      buttons: [`track-${i}`, `CODE${String(i).padStart(8, '0')}`],
    },
  }));
