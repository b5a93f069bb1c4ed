(function_definition declarator: (function_declarator declarator: (_) @name)) @unit.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @unit.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name))) @unit.function
(class_specifier name: (_) @name body: (_)) @unit.class
(struct_specifier name: (_) @name body: (_)) @unit.class
(union_specifier name: (_) @name body: (_)) @unit.class
(enum_specifier name: (_) @name body: (_)) @unit.class
(namespace_definition name: (_) @name) @unit.class
(preproc_include) @import
(using_declaration) @import
(translation_unit (preproc_def name: (identifier) @name) @constant)
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @constant)
