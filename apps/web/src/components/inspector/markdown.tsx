"use client";

import ReactMarkdown from "react-markdown";

/** A string rendered as Markdown. Raw HTML in it is shown as text, never run. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown" data-testid="markdown">
      <ReactMarkdown>{text}</ReactMarkdown>
    </div>
  );
}
