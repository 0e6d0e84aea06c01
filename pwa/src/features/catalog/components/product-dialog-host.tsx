import { Navigate, useLocation } from 'react-router-dom';
import { productPath } from '../../../../../api/contract/product-path';
import { overlayState } from '../../../lib/background-location';
import { useOpenProductId, withoutProductParam } from '../hooks/use-product-dialog';

/**
 * Mounted once on every page (extension `globals`): an old `?product=<id>` link (shared before products had
 * their own address, or typed in a call's chat) goes to the product's address, shown over the page it named.
 * The product page then puts its readable slug in the address.
 */
export function ProductDialogHost() {
  const id = useOpenProductId();
  const location = useLocation();
  if (id === null) return null;
  return (
    <Navigate
      replace
      to={productPath({ id, name: '' })}
      state={overlayState(withoutProductParam(location), true)}
    />
  );
}
