/** The product's name, in the page, the mails and the stack's names: fixed, not a setting. */
export const BRAND_NAME = 'Mandje';
