(function_declaration name: (identifier) @name) @unit.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) (pointer_type (type_identifier)) (generic_type) (pointer_type (generic_type))] @receiver))
  name: (field_identifier) @name) @unit.method
(type_declaration (type_spec name: (type_identifier) @name)) @unit.class
(import_declaration) @import
(source_file (const_declaration (const_spec name: (identifier) @name)) @constant)
(source_file (var_declaration (var_spec name: (identifier) @name)) @constant)
