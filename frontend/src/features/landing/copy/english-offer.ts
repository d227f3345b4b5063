/** One sentence in one language: the Dutch page says it in English, to a reader of English. */
export const ENGLISH_OFFER = 'This page is also in English';
