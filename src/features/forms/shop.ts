/** On the meat shop the place of purchase of a complaint is fixed. */
export const SHOP_PLACE_OF_PURCHASE = 'Lihakauppa';
