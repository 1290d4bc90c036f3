// RFC 6902 JSON Patch, applied to a copy of the document so a failed patch leaves the
// caller's document untouched (the client then asks for a fresh snapshot).
"use strict";
(function (GH) {
  function parsePointer(path) {
    if (path === "") return [];
    if (path[0] !== "/") throw new Error("bad JSON pointer " + path);
    return path.slice(1).split("/").map(function (p) {
      return p.replace(/~1/g, "/").replace(/~0/g, "~");
    });
  }

  function clone(value) {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }

  function walk(doc, tokens) {
    var node = doc;
    for (var i = 0; i < tokens.length; i++) {
      if (node === null || typeof node !== "object") throw new Error("path not found");
      var key = Array.isArray(node) ? arrayIndex(node, tokens[i], false) : tokens[i];
      if (!(key in node)) throw new Error("path not found: " + tokens[i]);
      node = node[key];
    }
    return node;
  }

  function arrayIndex(arr, token, forAdd) {
    if (forAdd && token === "-") return arr.length;
    if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error("bad array index " + token);
    var i = Number(token);
    if (i > arr.length || (!forAdd && i === arr.length)) throw new Error("index out of range " + token);
    return i;
  }

  function getValue(doc, path) {
    return walk(doc, parsePointer(path));
  }

  // Returns the new root (the root itself changes when path is "").
  function addValue(doc, path, value) {
    var tokens = parsePointer(path);
    if (!tokens.length) return value;
    var parent = walk(doc, tokens.slice(0, -1));
    var last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
    else if (parent !== null && typeof parent === "object") parent[last] = value;
    else throw new Error("cannot add under a scalar at " + path);
    return doc;
  }

  function removeValue(doc, path) {
    var tokens = parsePointer(path);
    if (!tokens.length) throw new Error("cannot remove the root");
    var parent = walk(doc, tokens.slice(0, -1));
    var last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
    else if (parent !== null && typeof parent === "object" && last in parent) delete parent[last];
    else throw new Error("path not found: " + path);
    return doc;
  }

  function equal(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function applyOne(doc, op) {
    switch (op.op) {
      case "add":
        return addValue(doc, op.path, clone(op.value));
      case "remove":
        return removeValue(doc, op.path);
      case "replace":
        getValue(doc, op.path);
        if (op.path === "") return clone(op.value);
        return addValue(removeValue(doc, op.path), op.path, clone(op.value));
      case "move": {
        var moved = getValue(doc, op.from);
        return addValue(removeValue(doc, op.from), op.path, moved);
      }
      case "copy":
        return addValue(doc, op.path, clone(getValue(doc, op.from)));
      case "test":
        if (!equal(getValue(doc, op.path), op.value)) throw new Error("test failed at " + op.path);
        return doc;
      default:
        throw new Error("unknown patch op " + op.op);
    }
  }

  // applyPatch(doc, ops) -> new document; throws Error when any op does not apply.
  GH.applyPatch = function (doc, ops) {
    var result = clone(doc);
    for (var i = 0; i < ops.length; i++) result = applyOne(result, ops[i]);
    return result;
  };
})((window.GH = window.GH || {}));
