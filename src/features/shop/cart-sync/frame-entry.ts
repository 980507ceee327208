import { answerSites } from './shop-frame.ts';

/**
 * The browser entry of the shop's `/cart-sync` page (decision 061): the brand sites' origins come
 * in the page, and the frame answers their messages. No React, no texts and no styles load here.
 */
const element = document.getElementById('cart-sync');
const origins = element?.dataset.allowedOrigins;
const allowed: unknown = origins ? JSON.parse(origins) : [];
answerSites(
  Array.isArray(allowed) ? allowed.filter((o): o is string => typeof o === 'string') : [],
);
// Answering from now on: what tests and tools wait for.
element?.setAttribute('data-ready', '');
