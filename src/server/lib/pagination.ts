import type { Pagination } from '../../shared/schemas/common.ts';

export function paginate(totalResults: number, page: number, pageSize: number): Pagination {
  return {
    totalResults,
    totalPages: Math.max(1, Math.ceil(totalResults / pageSize)),
    page,
    pageSize,
  };
}
