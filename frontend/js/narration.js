// Narration for the table screen: at each public step change a short cue tone
// and one spoken line in the room's language. The line is chosen from the step alone
// (and public facts of it: the day, the duck's ingredients), never from how long a step
// took or what anyone chose in secret, so a witches' turn with spells and one without
// are announced the same. Muted is remembered; without speech or audio it is silent.
const MUTE_KEY = "party.table_muted";
// A voice for each of the site's languages (BCP 47), for speechSynthesis.
const VOICE_LANG = { en: "en", "zh-Hant": "zh-TW", uk: "uk-UA", th: "th-TH" };

export function isMuted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch { return false; }
}

export function setMuted(muted) {
  try { localStorage.setItem(MUTE_KEY, muted ? "1" : "0"); } catch { /* storage blocked: not kept */ }
  if (muted && "speechSynthesis" in window) speechSynthesis.cancel();
}

let audio = null;

// A soft two-note chime (WebAudio), the same for every step.
function cue() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    [660, 880].forEach((pitch, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.15);
      tone.stop(now + i * 0.15 + 0.15);
    });
  } catch { /* no WebAudio: the line alone */ }
}

// Says `line` in `language` (a code of i18n.js LANGUAGES), after the cue; nothing if muted.
export function narrate(line, language) {
  if (isMuted() || !line) return;
  cue();
  if (!("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") return;
  const lang = VOICE_LANG[language] || "en";
  const utterance = new SpeechSynthesisUtterance(line);
  utterance.lang = lang;
  const voice = speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().startsWith(lang.toLowerCase()))
    || speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().startsWith(lang.slice(0, 2).toLowerCase()));
  if (voice) utterance.voice = voice;
  speechSynthesis.cancel(); // a new step: the last line, if still speaking, is over
  speechSynthesis.speak(utterance);
}
