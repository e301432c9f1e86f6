// Pictures people would rather look at than read (emoji: no image files to load).
export const ICONS = {
  role: { villager: "🧑‍🌾", herbalist: "🌿", seer: "🔮", knight: "🛡", pickpocket: "🧤", witch: "🧙", crow: "🐦‍⬛", jester: "🃏" },
  place: { forest: "🌲", meadow: "🌼", river: "🏞", cave: "🕳", tower: "🗼" },
  ingredient: { mushroom: "🍄", moonflower: "🌙", fish: "🐟", crystal: "💎", candle: "🕯", rotten: "🤢", nightshade: "☠", empty: "🐾" },
  spell: { none: "✋", frog: "🐸", snatch: "🫳", spoil: "🤢" },
};

// What each place gives (RULES §4, engine/catch_the_witch/tables.py PLACES): shown on its button.
export const PLACE_INGREDIENT = { forest: "mushroom", meadow: "moonflower", river: "fish", cave: "crystal", tower: "candle" };
