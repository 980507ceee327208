import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Header, main content and footer: the frame of every page. */
export function SiteLayout(props: { children: ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
      <SiteFooter year={new Date().getFullYear()} />
    </>
  );
}
