import type { PaginationKeys } from '../../../components/pagination';

/** The catalogue's pagination texts. */
export const CATALOG_PAGINATION: PaginationKeys = {
  nav: 'catalog.pagination.label',
  previous: 'catalog.pagination.previous',
  next: 'catalog.pagination.next',
  page: 'catalog.pagination.page',
};
