(function_item name: (identifier) @name) @unit.function
(function_signature_item name: (identifier) @name) @unit.function
(struct_item name: (type_identifier) @name) @unit.class
(enum_item name: (type_identifier) @name) @unit.class
(trait_item name: (type_identifier) @name) @unit.class
(impl_item type: (_) @name) @unit.class
(mod_item name: (identifier) @name body: (_)) @unit.class
(macro_definition name: (identifier) @name) @unit.function
(use_declaration) @import
(source_file (const_item name: (identifier) @name) @constant)
(source_file (static_item name: (identifier) @name) @constant)
