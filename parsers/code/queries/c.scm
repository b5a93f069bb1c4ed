(function_definition declarator: (function_declarator declarator: (identifier) @name)) @unit.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @unit.function
(struct_specifier name: (type_identifier) @name body: (_)) @unit.class
(union_specifier name: (type_identifier) @name body: (_)) @unit.class
(enum_specifier name: (type_identifier) @name body: (_)) @unit.class
(preproc_include) @import
(translation_unit (preproc_def name: (identifier) @name) @constant)
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @constant)
