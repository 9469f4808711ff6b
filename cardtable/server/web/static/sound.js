// @ts-check
// Sound made in the page with Web Audio (no files): short tones for your
// turn, a card played, a trick won, a round's end and the timer's last
// seconds. Off until the person turns it on at the table; the choice is
// remembered in localStorage. The AudioContext is made on that click, since
// browsers only let a page sound after a gesture.

const KEY = "cardtable.sound";

// Each cue: notes as [frequency Hz, start s, length s], a wave shape and a loudness.
/** @type {Record<string, {wave: OscillatorType, gain: number, notes: [number, number, number][]}>} */
const CUES = {
  turn: { wave: "sine", gain: 0.18, notes: [[660, 0, 0.12], [880, 0.12, 0.18]] },
  play: { wave: "triangle", gain: 0.16, notes: [[220, 0, 0.06]] },
  trick: { wave: "sine", gain: 0.16, notes: [[523, 0, 0.1], [659, 0.08, 0.1], [784, 0.16, 0.16]] },
  round: { wave: "sine", gain: 0.18, notes: [[392, 0, 0.18], [523, 0.18, 0.18], [659, 0.36, 0.3]] },
  tick: { wave: "square", gain: 0.06, notes: [[1000, 0, 0.04]] },
};

export class Sound {
  /** @param {Storage} [storage] */
  constructor(storage = localStorage) {
    this.storage = storage;
    this.on = storage.getItem(KEY) === "on";
    /** @type {AudioContext | null} */
    this.context = null;
  }

  /** @param {boolean} on */
  set(on) {
    this.on = on;
    this.storage.setItem(KEY, on ? "on" : "off");
    if (on) this.audio();
  }

  /** @returns {AudioContext | null} */
  audio() {
    if (!this.context) {
      // Safari before 14.1 names it webkitAudioContext.
      /** @type {typeof AudioContext | undefined} */
      const Context = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
      if (!Context) return null;
      this.context = new Context();
    }
    return this.context;
  }

  /**
   * Play a cue by name ("turn", "play", "trick", "round", "tick"), if sound is on.
   * @param {string} name
   */
  cue(name) {
    const cue = CUES[name];
    if (!this.on || !cue) return;
    const audio = this.audio();
    if (!audio) return;
    const now = audio.currentTime;
    for (const [frequency, start, length] of cue.notes) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = cue.wave;
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, now + start);
      volume.gain.exponentialRampToValueAtTime(cue.gain, now + start + 0.01);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.02);
    }
  }
}
