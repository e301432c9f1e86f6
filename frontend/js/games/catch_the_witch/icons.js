// Pictures people would rather look at than read (emoji: no image files to load).
export const ICONS = {
  role: { villager: "🧑‍🌾", herbalist: "🌿", seer: "🔮", knight: "🛡", pickpocket: "🧤", witch: "🧙", crow: "🐦‍⬛", jester: "🃏" },
  place: { forest: "🌲", meadow: "🌼", river: "🏞", cave: "🕳", tower: "🗼" },
  ingredient: { mushroom: "🍄", moonflower: "🌙", fish: "🐟", crystal: "💎", candle: "🕯", rotten: "🤢", nightshade: "☠", empty: "🐾" },
  spell: { none: "·", frog: "🐸", snatch: "🫳", spoil: "🤢" },
};
