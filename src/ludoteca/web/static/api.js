// What every page shares: one call of the JSON API, whose errors become Error("what was wrong").

export async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { error: `unexpected answer from the server (${response.status})` };
  }
  if (!response.ok) {
    throw new Error(body.error || `error ${response.status}`);
  }
  return body;
}
