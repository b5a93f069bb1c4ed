(class_declaration name: (identifier) @name) @unit.class
(function_declaration name: (identifier) @name) @unit.function
(generator_function_declaration name: (identifier) @name) @unit.function
(method_definition name: (_) @name) @unit.method
(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @unit.function
(variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @unit.function
(import_statement) @import
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name))) @constant)
