import type { ContentBlock } from "@agentclientprotocol/sdk";

/**
 * An ACP prompt as the text of one Handoff message: text as is, embedded text resources
 * fenced under their URI, links as Markdown links. Images and audio are not advertised
 * (`promptCapabilities`), so a client does not send them; if one does, they are named, not dropped silently.
 */
export function promptText(blocks: ContentBlock[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case "text":
          return b.text;
        case "resource_link":
          return `[${b.name}](${b.uri})`;
        case "resource":
          return "text" in b.resource ? `${b.resource.uri}:\n\`\`\`\n${b.resource.text}\n\`\`\`` : `(binary resource ${b.resource.uri} not included)`;
        default:
          return `(${b.type} content not included)`;
      }
    })
    .filter((part) => part.trim())
    .join("\n\n");
}
