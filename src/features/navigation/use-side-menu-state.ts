import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * The header's side menu: open or closed. While it is open the page behind does not scroll.
 * Closed by the visitor (`closeByVisitor`, not a switch to the desktop mode), it gives focus back
 * to the burger once it has closed, as the page behind is inert until then.
 */
export function useSideMenuState(burger: RefObject<HTMLButtonElement | null>) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    const html = document.documentElement;
    const before = html.style.overflow;
    html.style.overflow = 'hidden';
    return () => {
      html.style.overflow = before;
    };
  }, [open]);

  const returnFocus = useRef(false);
  const closeByVisitor = () => {
    returnFocus.current = true;
    setOpen(false);
  };
  useEffect(() => {
    if (open || !returnFocus.current) return;
    returnFocus.current = false;
    burger.current?.focus();
  }, [open, burger]);

  return { open, setOpen, closeByVisitor };
}
