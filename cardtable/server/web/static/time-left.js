// @ts-check
// A turn-based move's time left, in the reader's own units: the table's
// clock, My games and "Your turn" (/my/turns) say it alike.

/**
 * ``seconds`` as hours and minutes ("23 h 5 min", "23 Std. 5 Min."); a part
 * of a minute counts as one, and a whole number of hours drops the minutes.
 * @param {number} seconds
 * @param {string} lang
 * @returns {string}
 */
export function hoursAndMinutes(seconds, lang) {
  const unit = (/** @type {string} */ name, /** @type {number} */ value) =>
    new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "short" }).format(value);
  const total = Math.ceil(Math.max(0, seconds) / 60);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return unit("minute", minutes);
  return minutes === 0 ? unit("hour", hours) : `${unit("hour", hours)} ${unit("minute", minutes)}`;
}
