import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import { subscriptionSettings } from './settings.ts';

/**
 * What the site layout shows of the marketing lists on every page of a site (`settings.ts`): the
 * newsletter band with its modal, and the floating overlay. Both hydrate when the browser is idle.
 */
export function SubscriptionExtras() {
  const { site, lang } = usePage();
  const settings = subscriptionSettings[site.id];
  if (!settings) return null;
  return (
    <>
      {settings.newsletterHash ? (
        <Island
          name="newsletter-modal"
          props={{ hash: settings.newsletterHash, event: Boolean(settings.foodService) }}
          lang={lang}
          hydrate="idle"
        />
      ) : null}
      {settings.overlay ? (
        <Island
          name="floating-overlay"
          props={{ event: Boolean(settings.foodService) }}
          lang={lang}
          hydrate="idle"
        />
      ) : null}
    </>
  );
}
