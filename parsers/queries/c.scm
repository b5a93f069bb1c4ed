(function_definition declarator: (function_declarator declarator: (identifier) @name)) @unit.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @unit.function
(struct_specifier name: (type_identifier) @name body: (_)) @unit.class
(union_specifier name: (type_identifier) @name body: (_)) @unit.class
(enum_specifier name: (type_identifier) @name body: (_)) @unit.class
(preproc_include) @import
