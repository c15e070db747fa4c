"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorMessage } from "~/lib/error-message";
import { useTRPC } from "~/trpc/react";
import { useServiceDefaults } from "../ui/service-defaults";

/** Mode, profile, model (empty: the service default), title and the first prompt. */
export function NewSessionForm({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { defaultModel } = useServiceDefaults();
  const [mode, setMode] = useState<"interactive" | "headless">("interactive");
  const [profile, setProfile] = useState("general");
  const [model, setModel] = useState("");
  const [title, setTitle] = useState("");
  const [prompt, setPrompt] = useState("");
  const create = useMutation(
    trpc.session.create.mutationOptions({ onSuccess: ({ sessionId }) => router.push(`/sessions/${sessionId}`) }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      mode,
      profile: profile.trim() || "general",
      model: model.trim() || undefined,
      title: title.trim() || undefined,
      prompt: prompt.trim() || undefined,
    });
  };

  return (
    <form className="card new-session" onSubmit={submit} aria-labelledby="new-session-title">
      <header className="card-head">
        <h2 id="new-session-title">New session</h2>
      </header>
      <div className="card-body form-grid">
        <fieldset className="field">
          <legend>Mode</legend>
          <label className="radio">
            <input type="radio" name="mode" value="interactive" checked={mode === "interactive"} onChange={() => setMode("interactive")} />
            interactive <span className="muted small">converses across turns</span>
          </label>
          <label className="radio">
            <input type="radio" name="mode" value="headless" checked={mode === "headless"} onChange={() => setMode("headless")} />
            headless <span className="muted small">one prompt, one reply</span>
          </label>
        </fieldset>
        <label className="field">
          <span>Profile</span>
          <input list="known-profiles" value={profile} onChange={(e) => setProfile(e.target.value)} required />
          <datalist id="known-profiles">
            <option value="general" />
            <option value="explore" />
          </datalist>
        </label>
        <label className="field">
          <span>Model</span>
          <input
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder={`service default (${defaultModel})`}
            aria-describedby="model-hint"
            spellCheck={false}
          />
          <small id="model-hint" className="muted">
            provider:model — empty uses the service default; sim:NAME plays a built-in scenario
          </small>
        </label>
        <label className="field">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="optional; generated from the prompt" />
        </label>
        <label className="field field-wide">
          <span>First prompt</span>
          <textarea rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder="optional for interactive sessions" />
        </label>
        {create.error ? (
          <p className="error-box field-wide" role="alert">
            {errorMessage(create.error)}
          </p>
        ) : null}
        <div className="form-actions field-wide">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create session"}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </form>
  );
}
