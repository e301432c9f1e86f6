// Burn the Witch's pictures: an emoji for each trait (shown with its word, never alone),
// identity and faction.
export const TRAIT_ICON = {
  hat: "🎩", beard: "🧔", glasses: "👓", cat: "🐈", broom: "🧹", candle: "🕯️",
  red_hair: "👩‍🦰", apron: "🥼", cane: "🦯", basket: "🧺", scarf: "🧣", freckles: "🔸",
};
export const IDENTITY_ICON = { innocent: "🕊️", devout: "🙏", witch: "🧙‍♀️" };
export const FACTION_ICON = { zealot: "✝️", sympathizer: "🌙" };
export const SYMPATHIZER_ICON = { coven: "✌️", witch: "🧙‍♀️", bewitched: "💫" };
