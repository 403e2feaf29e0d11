// The page's one lookup, shared by every part: an element by its id.
export const $ = (id) => document.getElementById(id);
