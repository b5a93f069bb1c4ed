(function_definition name: (name) @name) @unit.function
(class_declaration name: (name) @name) @unit.class
(interface_declaration name: (name) @name) @unit.class
(trait_declaration name: (name) @name) @unit.class
(enum_declaration name: (name) @name) @unit.class
(method_declaration name: (name) @name) @unit.method
(namespace_use_declaration) @import
(program (const_declaration (const_element (name) @name)) @constant)
