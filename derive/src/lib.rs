//! `#[derive(Enumerable)]` for neatcheck.
//!
//! For a type `T` it generates:
//! - `impl Enumerable for T`: the space (one `pay` around the union of the
//!   constructors, in declaration order; each field is one position with its
//!   type's canonical space, or the space named by
//!   `#[enumerable(with = expr)]`), and a typed materialiser;
//! - a view type `TView<'a, ..>` of the same shape whose fields are
//!   `neatcheck::Lazy` handles (`Box<X>` fields become `Lazy<'a, X>`), and
//!   `impl LazyView for T`.
//!
//! Attributes: `#[enumerable(skip)]` on a variant leaves it out of the
//! space; `#[enumerable(with = expr)]` on a field uses `expr` (a
//! `Space<FieldType>`, also accepted as a string `"expr"`) instead of the
//! field type's space, and the field's view is a `Lazy` handle of its type
//! (the engine checks reads of such positions). `#[enumerable(transparent)]`
//! on a struct with exactly one field makes the struct the position of its
//! field (`space::transparent`): no constructor cost, and a view holding the
//! field's handle. It is not the default for one-field structs because a
//! constructor costs 1 in the size-based convention (the run counts of the
//! benchmark specifications in `docs/benchmarks/` rely on it). Derived types also register their `Debug` text
//! (when they have one) for reports of complete unnamed positions.

extern crate proc_macro;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2, TokenTree};
use quote::{format_ident, quote};
use syn::{
    parse_macro_input, Data, DeriveInput, Expr, Fields, GenericArgument, GenericParam, Ident, Lit,
    PathArguments, Type,
};

/// Derives `neatcheck::Enumerable` and `neatcheck::LazyView` (see the crate
/// documentation for the attributes).
#[proc_macro_derive(Enumerable, attributes(enumerable))]
pub fn derive_enumerable(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

struct FieldInfo {
    name: Option<Ident>,
    ty: Type,
    with: Option<Expr>,
}

struct VariantInfo {
    name: Ident,
    /// `None` for a struct (no variant path).
    is_enum: bool,
    kind: Kind,
    fields: Vec<FieldInfo>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Named,
    Tuple,
    Unit,
}

/// Runs `each` on every item of every `#[enumerable(...)]` attribute.
fn enumerable_items(
    attrs: &[syn::Attribute],
    mut each: impl FnMut(syn::meta::ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    for attr in attrs {
        if attr.path().is_ident("enumerable") {
            attr.parse_nested_meta(&mut each)?;
        }
    }
    Ok(())
}

fn parse_field_attrs(attrs: &[syn::Attribute]) -> syn::Result<Option<Expr>> {
    let mut with = None;
    enumerable_items(attrs, |meta| {
        if meta.path.is_ident("with") {
            // `with = expr`, or the older string form `with = "expr"`.
            let e: Expr = meta.value()?.parse()?;
            with = Some(match e {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) => s.parse::<Expr>()?,
                e => e,
            });
            Ok(())
        } else {
            Err(meta.error("expected `with = <a Space of the field's type>`"))
        }
    })?;
    Ok(with)
}

/// Whether the type carries `#[enumerable(transparent)]`.
fn type_transparent(attrs: &[syn::Attribute]) -> syn::Result<Option<Span>> {
    let mut transparent = None;
    enumerable_items(attrs, |meta| {
        if meta.path.is_ident("transparent") {
            transparent = Some(meta.path.get_ident().map_or(Span::call_site(), Ident::span));
            Ok(())
        } else {
            Err(meta.error("expected `transparent` (on a struct with one field)"))
        }
    })?;
    Ok(transparent)
}

fn variant_skipped(attrs: &[syn::Attribute]) -> syn::Result<bool> {
    let mut skip = false;
    enumerable_items(attrs, |meta| {
        if meta.path.is_ident("skip") {
            skip = true;
            Ok(())
        } else {
            Err(meta.error("expected `skip`"))
        }
    })?;
    Ok(skip)
}

fn fields_of(fields: &Fields) -> syn::Result<(Kind, Vec<FieldInfo>)> {
    let kind = match fields {
        Fields::Named(_) => Kind::Named,
        Fields::Unnamed(_) => Kind::Tuple,
        Fields::Unit => Kind::Unit,
    };
    let mut out = vec![];
    for f in fields.iter() {
        out.push(FieldInfo {
            name: f.ident.clone(),
            ty: f.ty.clone(),
            with: parse_field_attrs(&f.attrs)?,
        });
    }
    Ok((kind, out))
}

/// `Box<X>` -> `Some(X)`.
fn boxed_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    if last.ident != "Box" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    if args.args.len() != 1 {
        return None;
    }
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

fn mentions(tokens: TokenStream2, name: &Ident) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *name,
        TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

fn expand(input: DeriveInput) -> syn::Result<TokenStream2> {
    let name = &input.ident;
    let vis = &input.vis;
    for p in &input.generics.params {
        if let GenericParam::Lifetime(l) = p {
            return Err(syn::Error::new_spanned(
                l,
                "#[derive(Enumerable)] needs a type without lifetime parameters (Enumerable types are 'static)",
            ));
        }
    }

    let mut variants: Vec<VariantInfo> = vec![];
    let mut all_variants: Vec<VariantInfo> = vec![];
    match &input.data {
        Data::Struct(s) => {
            let (kind, fields) = fields_of(&s.fields)?;
            variants.push(VariantInfo {
                name: name.clone(),
                is_enum: false,
                kind,
                fields,
            });
        }
        Data::Enum(e) => {
            for v in &e.variants {
                let (kind, fields) = fields_of(&v.fields)?;
                let info = VariantInfo {
                    name: v.ident.clone(),
                    is_enum: true,
                    kind,
                    fields,
                };
                if variant_skipped(&v.attrs)? {
                    all_variants.push(info);
                } else {
                    let (kind, fields) = fields_of(&v.fields)?;
                    all_variants.push(VariantInfo {
                        name: v.ident.clone(),
                        is_enum: true,
                        kind,
                        fields,
                    });
                    variants.push(info);
                }
            }
        }
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(
                u.union_token,
                "#[derive(Enumerable)] does not support unions",
            ))
        }
    }
    let is_enum = matches!(input.data, Data::Enum(_));
    if let Some(span) = type_transparent(&input.attrs)? {
        if is_enum || variants.len() != 1 || variants[0].fields.len() != 1 {
            return Err(syn::Error::new(
                span,
                format!(
                    "#[enumerable(transparent)] needs a struct with exactly one field \
                     (`{name}` is {}); derive without it to give each constructor its cost of 1",
                    if is_enum {
                        "an enum".to_string()
                    } else {
                        format!("a struct with {} fields", variants[0].fields.len())
                    }
                ),
            ));
        }
        if let Some(e) = &variants[0].fields[0].with {
            return Err(syn::Error::new_spanned(
                e,
                "#[enumerable(transparent)] uses the field type's own space: \
                 remove `with` (or the `transparent` attribute)",
            ));
        }
        return Ok(expand_transparent(&input, &variants[0]));
    }
    if !is_enum {
        all_variants = vec![];
    }

    let nc = quote!(::neatcheck);

    // impl generics with `Enumerable` bounds on type parameters.
    let mut generics = input.generics.clone();
    for p in generics.params.iter_mut() {
        if let GenericParam::Type(t) = p {
            t.bounds.push(syn::parse_quote!(#nc::Enumerable));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();

    // --- describe ---
    let ctor_path = |v: &VariantInfo| -> TokenStream2 {
        let vn = &v.name;
        if v.is_enum {
            quote!(#name::#vn)
        } else {
            quote!(#name)
        }
    };
    let mut ctors = vec![];
    for v in &variants {
        let vname = v.name.to_string();
        let path = ctor_path(v);
        let field_spaces: Vec<TokenStream2> = v
            .fields
            .iter()
            .map(|f| {
                let ty = &f.ty;
                match &f.with {
                    Some(e) => quote!(#nc::space::field_with::<#ty>(#e)),
                    None => quote!(#nc::space::field::<#ty>()),
                }
            })
            .collect();
        let takes: Vec<TokenStream2> = v
            .fields
            .iter()
            .map(|f| {
                let ty = &f.ty;
                quote!(__f.take::<#ty>())
            })
            .collect();
        let build = match v.kind {
            Kind::Unit => quote!(#path),
            Kind::Tuple => quote!(#path(#(#takes),*)),
            Kind::Named => {
                let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
                quote!(#path { #(#names: #takes),* })
            }
        };
        let ctor = if v.kind == Kind::Named {
            let names: Vec<String> = v
                .fields
                .iter()
                .map(|f| f.name.as_ref().unwrap().to_string())
                .collect();
            quote!(#nc::space::Constructor::named(
                #vname,
                vec![#((#names, #field_spaces)),*],
                |__f: &mut #nc::space::Fields<'_>| #build,
            ))
        } else {
            quote!(#nc::space::Constructor::new(
                #vname,
                vec![#(#field_spaces),*],
                |__f: &mut #nc::space::Fields<'_>| #build,
            ))
        };
        ctors.push(ctor);
    }

    let show = show_types(
        variants
            .iter()
            .flat_map(|v| v.fields.iter().map(|f| f.ty.clone())),
    );

    // --- force_lazy ---
    let mut force_arms = vec![];
    for (tag, v) in variants.iter().enumerate() {
        let tag = tag as u32;
        let path = ctor_path(v);
        let vals: Vec<TokenStream2> = v
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let ty = &f.ty;
                let i = i as u32;
                if f.with.is_some() {
                    quote!(__lazy.__field::<#ty>(__first, #i).force_generic())
                } else {
                    quote!(<#ty as #nc::Enumerable>::force_lazy(__lazy.__field::<#ty>(__first, #i)))
                }
            })
            .collect();
        let build = match v.kind {
            Kind::Unit => quote!(#path),
            Kind::Tuple => quote!(#path(#(#vals),*)),
            Kind::Named => {
                let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
                quote!(#path { #(#names: #vals),* })
            }
        };
        force_arms.push(quote!(#tag => #build,));
    }

    // --- view type ---
    let view_name = format_ident!("{}View", name);
    let lt = syn::Lifetime::new("'a", Span::call_site());
    let view_field_ty = |f: &FieldInfo| -> TokenStream2 {
        let ty = &f.ty;
        if f.with.is_some() {
            // The field's own space: a handle of the field's type whose
            // reads check the position (the grammar is not trusted).
            return quote!(#nc::Lazy<#lt, #ty>);
        }
        if let Some(inner) = boxed_inner(ty) {
            return quote!(#nc::Lazy<#lt, #inner>);
        }
        quote!(#nc::Lazy<#lt, #ty>)
    };
    let view_variants_src: &Vec<VariantInfo> = if is_enum { &all_variants } else { &variants };
    let any_field = view_variants_src.iter().any(|v| !v.fields.is_empty());
    // Generic parameters of the view: 'a if any field, and the type and
    // const parameters the fields mention.
    let field_tokens: TokenStream2 = view_variants_src
        .iter()
        .flat_map(|v| v.fields.iter())
        .map(|f| {
            let t = &f.ty;
            quote!(#t)
        })
        .collect();
    let mut view_params: Vec<TokenStream2> = vec![];
    let mut view_args: Vec<TokenStream2> = vec![];
    if any_field {
        view_params.push(quote!(#lt));
        view_args.push(quote!(#lt));
    }
    for p in &input.generics.params {
        match p {
            GenericParam::Type(t) => {
                if mentions(field_tokens.clone(), &t.ident) {
                    let id = &t.ident;
                    view_params.push(quote!(#id: #nc::Enumerable));
                    view_args.push(quote!(#id));
                }
            }
            GenericParam::Const(c) => {
                if mentions(field_tokens.clone(), &c.ident) {
                    let id = &c.ident;
                    let ty = &c.ty;
                    view_params.push(quote!(const #id: #ty));
                    view_args.push(quote!(#id));
                }
            }
            GenericParam::Lifetime(_) => {}
        }
    }
    let view_generics = if view_params.is_empty() {
        quote!()
    } else {
        quote!(<#(#view_params),*>)
    };
    let view_ty_args = if view_args.is_empty() {
        quote!()
    } else {
        quote!(<#(#view_args),*>)
    };
    let view_ty_args_anon = {
        let args: Vec<TokenStream2> = view_args
            .iter()
            .map(|a| {
                if a.to_string() == "'a" {
                    quote!('__v)
                } else {
                    a.clone()
                }
            })
            .collect();
        if args.is_empty() {
            quote!()
        } else {
            quote!(<#(#args),*>)
        }
    };

    let doc = format!(
        "The lazy view of [`{name}`]: one constructor read, fields as `neatcheck::Lazy` handles."
    );
    let view_def = if is_enum {
        let vs = all_variants.iter().map(|v| {
            let vn = &v.name;
            let tys: Vec<TokenStream2> = v.fields.iter().map(view_field_ty).collect();
            match v.kind {
                Kind::Unit => quote!(#vn),
                Kind::Tuple => quote!(#vn(#(#tys),*)),
                Kind::Named => {
                    let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
                    quote!(#vn { #(#names: #tys),* })
                }
            }
        });
        let variant_docs = all_variants
            .iter()
            .map(|v| format!("The view of `{}::{}`.", name, v.name));
        let vs = vs.zip(variant_docs).map(|(v, d)| quote!(#[doc = #d] #v));
        quote! {
            #[doc = #doc]
            #[allow(dead_code, non_camel_case_types)]
            #[derive(Debug, Clone, Copy)]
            #vis enum #view_name #view_generics { #(#vs),* }
        }
    } else {
        let v = &variants[0];
        let tys: Vec<TokenStream2> = v.fields.iter().map(view_field_ty).collect();
        match v.kind {
            Kind::Unit => quote! {
                #[doc = #doc]
                #[allow(dead_code)]
                #[derive(Debug, Clone, Copy)]
                #vis struct #view_name;
            },
            Kind::Tuple => quote! {
                #[doc = #doc]
                #[allow(dead_code)]
                #[derive(Debug, Clone, Copy)]
                #vis struct #view_name #view_generics (#(pub #tys),*);
            },
            Kind::Named => {
                let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
                let fdocs = v
                    .fields
                    .iter()
                    .map(|f| format!("The field `{}`.", f.name.as_ref().unwrap()));
                quote! {
                    #[doc = #doc]
                    #[allow(dead_code)]
                    #[derive(Debug, Clone, Copy)]
                    #vis struct #view_name #view_generics { #(#[doc = #fdocs] pub #names: #tys),* }
                }
            }
        }
    };

    // --- view fn ---
    let mut view_arms = vec![];
    for (tag, v) in variants.iter().enumerate() {
        let tag = tag as u32;
        let vn = &v.name;
        let path = if is_enum {
            quote!(#view_name::#vn)
        } else {
            quote!(#view_name)
        };
        let vals: Vec<TokenStream2> = v
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let i = i as u32;
                let ty = &f.ty;
                if f.with.is_some() {
                    // Its position holds another space than the type's
                    // own: read with every read checked.
                    return quote!(__lazy.__field::<#ty>(__first, #i).__checked());
                }
                let target = boxed_inner(ty).cloned().unwrap_or(ty.clone());
                quote!(__lazy.__field::<#target>(__first, #i))
            })
            .collect();
        let build = match v.kind {
            Kind::Unit => quote!(#path),
            Kind::Tuple => quote!(#path(#(#vals),*)),
            Kind::Named => {
                let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
                quote!(#path { #(#names: #vals),* })
            }
        };
        view_arms.push(quote!(#tag => #build,));
    }
    let unused_first = if any_field {
        quote!()
    } else {
        quote!(let _ = __first;)
    };

    let out = quote! {
        impl #impl_generics #nc::Enumerable for #name #ty_generics #where_clause {
            fn describe() -> #nc::Space<Self> {
                #show
                #nc::space::datatype(vec![#(#ctors),*])
            }
            #[allow(unused_variables)]
            fn force_lazy(__lazy: #nc::Lazy<'_, Self>) -> Self {
                if !__lazy.__is_canonical() {
                    return __lazy.force_generic();
                }
                let Some(__guard) = #nc::lazy::__DepthGuard::enter() else {
                    return __lazy.force_generic();
                };
                let (__tag, __first) = __lazy.__open();
                match __tag {
                    #(#force_arms)*
                    _ => unreachable!("neatcheck: unknown constructor tag"),
                }
            }
        }

        #view_def

        impl #impl_generics #nc::LazyView for #name #ty_generics #where_clause {
            type View<'__v> = #view_name #view_ty_args_anon;
            #[inline]
            #[allow(unused_variables)]
            fn view<'__v>(__lazy: #nc::Lazy<'__v, Self>) -> #view_name #view_ty_args_anon {
                let (__tag, __first) = __lazy.__open();
                #unused_first
                match __tag {
                    #(#view_arms)*
                    _ => unreachable!("neatcheck: unknown constructor tag"),
                }
            }
        }
    };
    let _ = view_ty_args;
    Ok(out)
}

/// Registers the `Debug` printers of `Self` and of the field types that are
/// `Debug` where the derive expands (reports print complete values of
/// unnamed alternatives, such as a field's custom space, through them).
fn show_types(types: impl Iterator<Item = Type>) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let types: Vec<Type> = types.collect();
    // The double reference selects the `Debug` implementation when there is
    // one (autoref specialisation).
    quote! {
        #[allow(clippy::needless_borrow)]
        let _ = {
            #[allow(unused_imports)]
            use #nc::space::{__ShowDebug as _, __ShowNone as _};
            (&&#nc::space::__Show::<Self>::new()).__register();
            #( (&&#nc::space::__Show::<#types>::new()).__register(); )*
        };
    }
}

/// `#[enumerable(transparent)]`: the struct is the very position of its one
/// field (no constructor cost, no node); its view holds the field's handle.
fn expand_transparent(input: &DeriveInput, v: &VariantInfo) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let name = &input.ident;
    let vis = &input.vis;
    let f = &v.fields[0];
    let ty = &f.ty;
    let target = boxed_inner(ty).cloned().unwrap_or(ty.clone());

    let mut generics = input.generics.clone();
    for p in generics.params.iter_mut() {
        if let GenericParam::Type(t) = p {
            t.bounds.push(syn::parse_quote!(#nc::Enumerable));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();

    let build = match &f.name {
        Some(n) => quote!(#name { #n: __x }),
        None => quote!(#name(__x)),
    };
    let show = show_types(std::iter::once(ty.clone()));

    // The view's generic parameters: 'a and the parameters the field uses.
    let field_tokens = quote!(#ty);
    let mut view_params: Vec<TokenStream2> = vec![quote!('a)];
    let mut view_args: Vec<TokenStream2> = vec![quote!('__v)];
    for p in &input.generics.params {
        match p {
            GenericParam::Type(t) if mentions(field_tokens.clone(), &t.ident) => {
                let id = &t.ident;
                view_params.push(quote!(#id: #nc::Enumerable));
                view_args.push(quote!(#id));
            }
            GenericParam::Const(c) if mentions(field_tokens.clone(), &c.ident) => {
                let id = &c.ident;
                let cty = &c.ty;
                view_params.push(quote!(const #id: #cty));
                view_args.push(quote!(#id));
            }
            _ => {}
        }
    }
    let view_name = format_ident!("{}View", name);
    let doc = format!(
        "The lazy view of [`{name}`] (transparent): the handle of its field, \
         the same position (reading the view reads nothing)."
    );
    let view_def = match &f.name {
        Some(n) => {
            let fdoc = format!("The field `{n}`.");
            quote! {
                #[doc = #doc]
                #[allow(dead_code)]
                #[derive(Debug, Clone, Copy)]
                #vis struct #view_name<#(#view_params),*> { #[doc = #fdoc] pub #n: #nc::Lazy<'a, #target> }
            }
        }
        None => quote! {
            #[doc = #doc]
            #[allow(dead_code)]
            #[derive(Debug, Clone, Copy)]
            #vis struct #view_name<#(#view_params),*>(pub #nc::Lazy<'a, #target>);
        },
    };
    let view_build = match &f.name {
        Some(n) => quote!(#view_name { #n: __lazy.__transparent::<#target>() }),
        None => quote!(#view_name(__lazy.__transparent::<#target>())),
    };

    quote! {
        impl #impl_generics #nc::Enumerable for #name #ty_generics #where_clause {
            fn describe() -> #nc::Space<Self> {
                #show
                #nc::space::transparent(|__x: #ty| #build)
            }
            fn force_lazy(__lazy: #nc::Lazy<'_, Self>) -> Self {
                let __inner = __lazy.__transparent::<#ty>();
                if <#ty as #nc::Enumerable>::__canonical_at(__inner) {
                    let __x = <#ty as #nc::Enumerable>::force_lazy(__inner);
                    #build
                } else {
                    __lazy.force_generic()
                }
            }
            fn __canonical_at(__lazy: #nc::Lazy<'_, Self>) -> bool {
                <#ty as #nc::Enumerable>::__canonical_at(__lazy.__transparent::<#ty>())
            }
            fn __position_type() -> ::core::any::TypeId {
                <#ty as #nc::Enumerable>::__position_type()
            }
        }

        #view_def

        impl #impl_generics #nc::LazyView for #name #ty_generics #where_clause {
            type View<'__v> = #view_name<#(#view_args),*>;
            #[inline(always)]
            fn view<'__v>(__lazy: #nc::Lazy<'__v, Self>) -> #view_name<#(#view_args),*> {
                #view_build
            }
        }
    }
}
