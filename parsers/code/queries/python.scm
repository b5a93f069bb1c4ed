; Units of Python source: classes and functions (methods are functions nested in a class).
(class_definition name: (identifier) @name) @unit.class
(function_definition name: (identifier) @name) @unit.function
(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import
; Module-level constants a definition may read (a rate, a limit): context for the units using them.
(module (assignment left: (identifier) @name) @constant)
(module (expression_statement (assignment left: (identifier) @name)) @constant)
