"""Hand-written schemas, one or more per keyword the strategies claim to cover.

Each entry is (id, schema). Every valid value drawn must validate and every invalid value must
not, judged by a fresh `jsonschema` validator with format checking on.
"""

from __future__ import annotations

from typing import Any

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"
D2020 = "https://json-schema.org/draft/2020-12/schema"

TREE = {
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "required": ["value"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/node",
}

KEYWORDS: list[tuple[str, Any]] = [
    ("true", True),
    ("empty", {}),
    ("type-string", {"type": "string"}),
    ("type-integer", {"type": "integer"}),
    ("type-number", {"type": "number"}),
    ("type-boolean", {"type": "boolean"}),
    ("type-null", {"type": "null"}),
    ("type-list", {"type": ["string", "null"]}),
    ("type-list-numbers", {"type": ["integer", "boolean"], "minimum": 3}),
    ("enum", {"enum": ["a", "b", 3, None, [1], {"k": "v"}]}),
    ("enum-typed", {"type": "string", "enum": ["red", "green", "blue"]}),
    ("const", {"const": "fixed"}),
    ("const-object", {"const": {"a": [1, 2]}}),
    ("properties", {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}),
    (
        "required",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}},
            "required": ["a"],
        },
    ),
    (
        "additionalProperties-false",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        },
    ),
    (
        "additionalProperties-schema",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": {"type": "integer", "maximum": 5},
        },
    ),
    (
        "patternProperties",
        {
            "type": "object",
            "patternProperties": {"^x-": {"type": "string", "maxLength": 3}},
            "additionalProperties": False,
        },
    ),
    ("propertyNames", {"type": "object", "propertyNames": {"pattern": "^[a-z]{1,5}$"}, "minProperties": 1}),
    ("min-maxProperties", {"type": "object", "minProperties": 2, "maxProperties": 3}),
    (
        "min-maxProperties-closed",
        {
            "type": "object",
            "properties": {"a": {}, "b": {}, "c": {}, "d": {}},
            "additionalProperties": False,
            "minProperties": 2,
            "maxProperties": 3,
        },
    ),
    ("property-false", {"type": "object", "properties": {"a": False, "b": {"type": "string"}}}),
    (
        "dependentRequired",
        {
            "type": "object",
            "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}},
            "dependentRequired": {"card": ["cvv"]},
            "additionalProperties": False,
        },
    ),
    (
        "dependencies-07",
        {
            "$schema": D7,
            "type": "object",
            "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}},
            "dependencies": {"card": ["cvv"]},
            "additionalProperties": False,
        },
    ),
    (
        "dependentSchemas",
        {
            "type": "object",
            "properties": {"kind": {"type": "string"}, "size": {"type": "integer"}},
            "dependentSchemas": {"kind": {"required": ["size"], "properties": {"size": {"minimum": 10}}}},
        },
    ),
    (
        "unevaluatedProperties",
        {
            "type": "object",
            "allOf": [{"properties": {"a": {"type": "string"}}}],
            "properties": {"b": {"type": "integer"}},
            "unevaluatedProperties": False,
        },
    ),
    (
        "unevaluatedProperties-anyOf",
        {
            "type": "object",
            "anyOf": [
                {"properties": {"a": {"const": 1}}, "required": ["a"]},
                {"properties": {"b": {"const": 2}}, "required": ["b"]},
            ],
            "unevaluatedProperties": False,
        },
    ),
    ("items", {"type": "array", "items": {"type": "integer", "minimum": 0}}),
    (
        "prefixItems",
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
    ),
    (
        "prefixItems-open",
        {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "boolean"}, "minItems": 2},
    ),
    (
        "items-array-07",
        {
            "$schema": D7,
            "type": "array",
            "items": [{"type": "string"}, {"type": "integer"}],
            "additionalItems": False,
        },
    ),
    (
        "additionalItems-07",
        {"$schema": D7, "type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "null"}},
    ),
    ("contains", {"type": "array", "contains": {"type": "integer", "minimum": 100}}),
    (
        "min-maxContains",
        {
            "type": "array",
            "items": {"type": "integer"},
            "contains": {"const": 1},
            "minContains": 2,
            "maxContains": 3,
        },
    ),
    ("min-maxItems", {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4}),
    (
        "uniqueItems",
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 9},
            "uniqueItems": True,
            "minItems": 3,
        },
    ),
    ("uniqueItems-objects", {"type": "array", "items": {"type": "object"}, "uniqueItems": True}),
    ("minimum-maximum", {"type": "integer", "minimum": -5, "maximum": 5}),
    ("exclusive-numeric", {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
    ("exclusive-integer", {"type": "integer", "exclusiveMinimum": 0.5, "exclusiveMaximum": 10}),
    (
        "exclusive-draft4",
        {
            "$schema": D4,
            "type": "number",
            "minimum": 0,
            "exclusiveMinimum": True,
            "maximum": 1,
            "exclusiveMaximum": True,
        },
    ),
    ("multipleOf-integer", {"type": "integer", "multipleOf": 7, "minimum": 10, "maximum": 100}),
    ("multipleOf-decimal", {"type": "number", "multipleOf": 0.01, "minimum": 0, "maximum": 10}),
    ("multipleOf-both", {"type": "integer", "allOf": [{"multipleOf": 2}, {"multipleOf": 3}]}),
    ("multipleOf-half", {"type": "number", "multipleOf": 0.5}),
    ("minLength-maxLength", {"type": "string", "minLength": 2, "maxLength": 5}),
    ("maxLength-zero", {"type": "string", "maxLength": 0}),
    ("pattern-anchored", {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"}),
    ("pattern-unanchored", {"type": "string", "pattern": "ab+c"}),
    ("pattern-word", {"type": "string", "pattern": "^\\w+@\\w+$"}),
    ("pattern-length", {"type": "string", "pattern": "^[a-z]+$", "minLength": 3, "maxLength": 6}),
    ("pattern-catalog", {"type": "string", "pattern": "^(Time)?SlicerStyle(Light|Dark|Other)\\d$"}),
    ("format-date-time", {"type": "string", "format": "date-time"}),
    ("format-date", {"type": "string", "format": "date"}),
    ("format-time", {"type": "string", "format": "time"}),
    ("format-email", {"type": "string", "format": "email"}),
    ("format-uri", {"type": "string", "format": "uri"}),
    ("format-uuid", {"type": "string", "format": "uuid"}),
    ("format-ipv4", {"type": "string", "format": "ipv4"}),
    ("format-ipv6", {"type": "string", "format": "ipv6"}),
    ("format-hostname", {"type": "string", "format": "hostname"}),
    ("format-duration", {"type": "string", "format": "duration"}),
    ("format-length", {"type": "string", "format": "email", "maxLength": 20}),
    (
        "allOf",
        {
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"properties": {"a": {"minimum": 3}, "b": {"type": "string"}}, "required": ["b"]},
            ]
        },
    ),
    (
        "allOf-closed",
        {
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
                {"properties": {"b": {"type": "string"}}},
            ]
        },
    ),
    ("anyOf", {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer", "minimum": 10}]}),
    (
        "anyOf-optional",
        {"anyOf": [{"type": "string", "enum": ["x", "y"]}, {"type": "null"}], "default": None},
    ),
    ("oneOf", {"oneOf": [{"type": "integer", "multipleOf": 2}, {"type": "integer", "multipleOf": 3}]}),
    (
        "oneOf-discriminated",
        {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}},
                    "required": ["kind"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "b"}, "y": {"type": "string"}},
                    "required": ["kind"],
                },
            ]
        },
    ),
    ("not", {"type": "integer", "not": {"enum": [0, 1, 2]}}),
    ("not-type", {"not": {"type": ["string", "object", "array"]}}),
    (
        "not-required",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "not": {"required": ["a", "b"]},
        },
    ),
    (
        "if-then-else",
        {
            "type": "object",
            "properties": {"kind": {"enum": ["num", "text"]}},
            "required": ["kind"],
            "if": {"properties": {"kind": {"const": "num"}}},
            "then": {"properties": {"value": {"type": "integer"}}, "required": ["value"]},
            "else": {"properties": {"value": {"type": "string"}}, "required": ["value"]},
        },
    ),
    (
        "ref-defs",
        {
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/point"}},
            "required": ["p"],
            "$defs": {
                "point": {
                    "type": "object",
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                    "required": ["x", "y"],
                    "additionalProperties": False,
                }
            },
        },
    ),
    ("ref-siblings-2020", {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 3}),
    (
        "ref-definitions-07",
        {
            "$schema": D7,
            "type": "object",
            "properties": {"p": {"$ref": "#/definitions/s", "maxLength": 0}},
            "definitions": {"s": {"type": "string", "minLength": 2}},
        },
    ),
    (
        "ref-anchor",
        {
            "$defs": {"s": {"$anchor": "short", "type": "string", "maxLength": 2}},
            "type": "array",
            "items": {"$ref": "#short"},
        },
    ),
    ("ref-recursive", TREE),
    (
        "ref-recursive-optional",
        {
            "$defs": {
                "list": {
                    "anyOf": [
                        {"type": "null"},
                        {
                            "type": "object",
                            "properties": {"head": {"type": "integer"}, "tail": {"$ref": "#/$defs/list"}},
                            "required": ["head", "tail"],
                        },
                    ]
                }
            },
            "$ref": "#/$defs/list",
        },
    ),
    (
        "default-examples",
        {
            "type": "object",
            "properties": {
                "mode": {"type": "string", "enum": ["fast", "slow"], "default": "slow"},
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 100,
                    "default": 10,
                    "examples": [5, 500],
                },
            },
            "required": ["limit"],
        },
    ),
    (
        "draft2019",
        {
            "$schema": D2019,
            "type": "array",
            "items": [{"type": "integer"}],
            "additionalItems": {"type": "string"},
            "contains": {"type": "string"},
            "minContains": 1,
        },
    ),
    (
        "nested-tool",
        {
            "$schema": D7,
            "type": "object",
            "properties": {
                "entities": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "observations": {"type": "array", "items": {"type": "string"}},
                            "score": {"type": "number", "minimum": 0, "maximum": 1},
                        },
                        "required": ["name", "observations"],
                        "additionalProperties": False,
                    },
                    "maxItems": 3,
                },
                "mode": {"type": "string", "enum": ["append", "replace"]},
            },
            "required": ["entities"],
            "additionalProperties": False,
        },
    ),
]

# A schema in which every mutation kind is possible (used to check each is reached).
EVERYTHING = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$"},
        "email": {"type": "string", "format": "email"},
        "count": {"type": "integer", "minimum": 1, "maximum": 10},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "step": {"type": "integer", "multipleOf": 5},
        "mode": {"enum": ["a", "b"]},
        "version": {"const": 2},
        "tags": {
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1,
            "maxItems": 3,
            "uniqueItems": True,
        },
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        "must": {"type": "array", "contains": {"type": "integer"}},
        "meta": {"type": "object", "minProperties": 1, "maxProperties": 2, "propertyNames": {"maxLength": 4}},
        "card": {"type": "string"},
        "cvv": {"type": "string"},
        "other": {"not": {"type": "string"}},
    },
    "required": ["name", "count"],
    "dependentRequired": {"card": ["cvv"]},
    "additionalProperties": False,
}
EVERY_KIND = {
    "type",
    "required",
    "additionalProperties",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "enum",
    "const",
    "minItems",
    "maxItems",
    "uniqueItems",
    "items",
    "contains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "not",
}
