/** `GET /v1/models`: one model, since the scenario, not the model name, decides the answers. */
export function modelsBody() {
  return {
    object: "list",
    data: [{ id: "sim", object: "model", created: 0, owned_by: "handoff-model-sim" }],
  };
}
