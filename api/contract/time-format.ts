/**
 * The one way a time of day is written (docs/product-rules.md §20.5): the locale's own clock, hour and minutes —
 * "1:16 pm" in en-IN, "பிற்பகல் 1:16" in ta-IN, "13:16" where the locale's clock is 24-hour (en-GB). Never a
 * forced 24-hour clock beside the locale's 12-hour one on the same screen.
 */
export const TIME_OF_DAY = {
  hour: 'numeric',
  minute: '2-digit',
} as const satisfies Intl.DateTimeFormatOptions;
