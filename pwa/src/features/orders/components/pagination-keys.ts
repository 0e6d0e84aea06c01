import type { PaginationKeys } from '../../../components/pagination';

/** The order lists' pagination texts. */
export const ORDERS_PAGINATION: PaginationKeys = {
  nav: 'orders.pagination',
  previous: 'orders.previous',
  next: 'orders.next',
  page: 'orders.pageN',
};
