/** An error in OpenAI's shape, so clients map it (and decide retries) as they would for the real API. */
export function errorBody(status: number, message: string) {
  const [type, code] = kind(status);
  return { error: { message, type, param: null, code } };
}

function kind(status: number): [type: string, code: string | null] {
  if (status === 429) return ["rate_limit_error", "rate_limit_exceeded"];
  if (status === 401) return ["authentication_error", "invalid_api_key"];
  if (status === 403) return ["permission_error", null];
  if (status === 404) return ["not_found_error", null];
  if (status >= 500) return ["server_error", null];
  return ["invalid_request_error", null];
}
