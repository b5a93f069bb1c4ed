(class_declaration name: (type_identifier) @name) @unit.class
(abstract_class_declaration name: (type_identifier) @name) @unit.class
(interface_declaration name: (type_identifier) @name) @unit.class
(enum_declaration name: (identifier) @name) @unit.class
(type_alias_declaration name: (type_identifier) @name) @unit.class
(function_declaration name: (identifier) @name) @unit.function
(generator_function_declaration name: (identifier) @name) @unit.function
(method_definition name: (_) @name) @unit.method
(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @unit.function
(import_statement) @import
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name))) @constant)
