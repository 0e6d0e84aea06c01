/** The WhatsApp link that opens a chat with the text and the address filled in (any contact, any device). */
export function whatsAppHref(text: string, url: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`${text}\n${url}`)}`;
}

/** A page's path as the address to share. */
export const absolute = (path: string) => new URL(path, window.location.origin).href;
