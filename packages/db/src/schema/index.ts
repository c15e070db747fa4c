export * from "./enums";
export * from "./sessions";
export * from "./agents";
export * from "./inbox";
export * from "./turns";
export * from "./events";
export * from "./todos";
export * from "./workers";
