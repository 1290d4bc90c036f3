// RFC 6902 JSON Patch, applied to a copy of the document so a failed patch leaves the
// caller's document untouched (the client then asks for a fresh snapshot).
//
// Member order matters to the page (a patched document must read exactly like the
// snapshot the server would send): "replace" and "add" onto an existing member write the
// value in place, so the member keeps its position, as the server's own library does.

function parsePointer(path) {
  if (path === "") return [];
  if (path[0] !== "/") throw new Error("bad JSON pointer " + path);
  return path
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function isObject(node) {
  return node !== null && typeof node === "object" && !Array.isArray(node);
}

function has(node, key) {
  return Object.prototype.hasOwnProperty.call(node, key);
}

function walk(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (node === null || typeof node !== "object") throw new Error("path not found");
    const key = Array.isArray(node) ? arrayIndex(node, token, false) : token;
    if (!has(node, key)) throw new Error("path not found: " + token);
    node = node[key];
  }
  return node;
}

function arrayIndex(arr, token, forAdd) {
  if (forAdd && token === "-") return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error("bad array index " + token);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length))
    throw new Error("index out of range " + token);
  return i;
}

// The parent container and last token of a non-root path.
function locate(doc, path) {
  const tokens = parsePointer(path);
  if (!tokens.length) return null;
  return { parent: walk(doc, tokens.slice(0, -1)), last: tokens[tokens.length - 1] };
}

// Returns the new root (the root itself changes when path is "").
function addValue(doc, path, value) {
  const at = locate(doc, path);
  if (!at) return value;
  if (Array.isArray(at.parent)) at.parent.splice(arrayIndex(at.parent, at.last, true), 0, value);
  else if (isObject(at.parent)) at.parent[at.last] = value;
  else throw new Error("cannot add under a scalar at " + path);
  return doc;
}

function removeValue(doc, path) {
  const at = locate(doc, path);
  if (!at) throw new Error("cannot remove the root");
  if (Array.isArray(at.parent)) at.parent.splice(arrayIndex(at.parent, at.last, false), 1);
  else if (isObject(at.parent) && has(at.parent, at.last)) delete at.parent[at.last];
  else throw new Error("path not found: " + path);
  return doc;
}

function replaceValue(doc, path, value) {
  const at = locate(doc, path);
  if (!at) return value;
  if (Array.isArray(at.parent)) at.parent[arrayIndex(at.parent, at.last, false)] = value;
  else if (isObject(at.parent) && has(at.parent, at.last)) at.parent[at.last] = value;
  else throw new Error("path not found: " + path);
  return doc;
}

// Structural equality for "test": objects compare by members, whatever their order.
function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && equal(a[k], b[k]))
    );
  }
  return false;
}

function applyOne(doc, op) {
  switch (op.op) {
    case "add":
      return addValue(doc, op.path, clone(op.value));
    case "remove":
      return removeValue(doc, op.path);
    case "replace":
      return replaceValue(doc, op.path, clone(op.value));
    case "move": {
      if (op.path !== op.from && op.path.startsWith(op.from + "/"))
        throw new Error("cannot move into itself");
      const moved = walk(doc, parsePointer(op.from));
      return addValue(removeValue(doc, op.from), op.path, moved);
    }
    case "copy":
      return addValue(doc, op.path, clone(walk(doc, parsePointer(op.from))));
    case "test":
      if (!equal(walk(doc, parsePointer(op.path)), op.value))
        throw new Error("test failed at " + op.path);
      return doc;
    default:
      throw new Error("unknown patch op " + op.op);
  }
}

// applyPatch(doc, ops) -> new document; throws Error when any op does not apply.
export function applyPatch(doc, ops) {
  let result = clone(doc);
  for (const op of ops) result = applyOne(result, op);
  return result;
}
