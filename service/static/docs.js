// "/docs": the API's reference, read from /openapi.json and laid out here: every operation
// with its parameters, body, answers and description. No CDN: it works in an offline club.
"use strict";

function schemaName(schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.type === "array") return `[${schemaName(schema.items)}]`;
  if (schema.anyOf || schema.oneOf) return (schema.anyOf || schema.oneOf).map(schemaName).join(" | ");
  return schema.type || "";
}

function operation(path, method, op) {
  const params = (op.parameters || []).map((p) =>
    el("li", {}, el("code", {}, p.name), ` (${p.in}${p.required ? ", required" : ""}) `,
      el("span", { class: "muted" }, schemaName(p.schema)), p.description ? ` \u2013 ${p.description}` : ""));
  const body = op.requestBody && Object.entries(op.requestBody.content || {}).map(([type, c]) =>
    el("li", {}, el("code", {}, type), " ", el("span", { class: "muted" }, schemaName(c.schema))));
  const answers = Object.entries(op.responses || {}).map(([code, r]) =>
    el("li", {}, el("code", {}, code), ` ${r.description || ""}`));
  return el("section", { class: "op", id: op.operationId || `${method}-${path}` },
    el("h2", {}, el("span", { class: `method ${method}` }, method.toUpperCase()), " ", el("code", {}, path)),
    op.summary && el("p", { class: "summary" }, op.summary),
    op.description && el("pre", { class: "description" }, op.description),
    params.length > 0 && el("div", {}, el("h3", {}, "Parameters"), el("ul", {}, params)),
    body && el("div", {}, el("h3", {}, "Body"), el("ul", {}, body)),
    el("div", {}, el("h3", {}, "Answers"), el("ul", {}, answers)));
}

async function start() {
  const schema = await getJSON("/openapi.json");
  document.getElementById("title").textContent = `${schema.info.title} API`;
  document.getElementById("subtitle").textContent = `version ${schema.info.version}`;
  const ops = [];
  for (const [path, methods] of Object.entries(schema.paths)) {
    for (const [method, op] of Object.entries(methods)) ops.push(operation(path, method, op));
  }
  replace(document.getElementById("operations"), ops);
}

start();
