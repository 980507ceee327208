/**
 * `paluu`: where the login and register pages send the shopper after a success (the checkout sends
 * a visitor to `/kirjaudu?paluu=/kassa?postinumero=…`). Whether a value may be used is decided by
 * `localReturnPath` (`src/server/return-path.ts`), as for every return path of the product.
 */
export const RETURN_PARAM = 'paluu';

/** A page's path with `paluu` added when there is one. */
export function withReturn(path: string, back: string | null): string {
  return back ? `${path}?${new URLSearchParams({ [RETURN_PARAM]: back })}` : path;
}
