/** `virtual:catalogue/<lang>/<prefixes>` (vite.config.ts `catalogueParts`): part of a catalogue. */
declare module 'virtual:catalogue/*' {
  const messages: Partial<import('./fi.ts').Messages>;
  export default messages;
}
