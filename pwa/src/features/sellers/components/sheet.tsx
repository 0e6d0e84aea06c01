import { SheetContent as BaseSheetContent, type SheetContentProps } from '../../../components/ui/sheet';

export { Sheet, SheetClose, SheetDescription, SheetTitle } from '../../../components/ui/sheet';

/** The product sheet's panel: the shared side sheet from the right, wide enough for the product form. */
export function SheetContent(
  props: Omit<SheetContentProps, 'side' | 'width' | 'closeLabel' | 'ownCloseButton'> & { closeLabel: string },
) {
  return <BaseSheetContent side="right" width="2xl" {...props} />;
}
