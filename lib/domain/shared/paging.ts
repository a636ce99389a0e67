/** Page arithmetic shared by the listings (decisions §9): sizes above the maximum are lowered to it. */
export interface PageRequest {
  page?: number;
  size?: number;
}

export function resolvePage(request: PageRequest, defaults: { size: number; max: number }) {
  const page = request.page ?? 1;
  const size = Math.min(request.size ?? defaults.size, defaults.max);
  return { page, size, offset: (page - 1) * size };
}

export function pageOf<T>(items: T[], page: { offset: number; size: number }): T[] {
  return items.slice(page.offset, page.offset + page.size);
}
