/** A count in `lang` with its grouping (de 1.504, en 1,504), for the texts' numbers. */
export const counter =
  (lang: 'de' | 'en') =>
  (count: number): string =>
    new Intl.NumberFormat(lang).format(count);
