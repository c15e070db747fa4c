"use client";

import { createContext, useContext, type ReactNode } from "react";

interface ServiceDefaults {
  /** The model an agent uses when neither the session nor its profile names one. */
  defaultModel: string;
}

const Context = createContext<ServiceDefaults>({ defaultModel: "sim:demo" });

export function ServiceDefaultsProvider({ defaultModel, children }: ServiceDefaults & { children: ReactNode }) {
  return <Context.Provider value={{ defaultModel }}>{children}</Context.Provider>;
}

export function useServiceDefaults(): ServiceDefaults {
  return useContext(Context);
}
