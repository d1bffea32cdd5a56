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
//! space; `#[enumerable(weight = n)]` on a variant draws it `n` times as
//! often in a check's random phase (`space::Constructor::weight`; the
//! exhaustive search is unchanged); `#[enumerable(with = expr)]` on a field uses `expr` (a
//! `Space<FieldType>`, also accepted as a string `"expr"`) instead of the
//! field type's space, and the field's view is a `Lazy` handle of its type
//! (the engine checks reads of such positions). `#[enumerable(transparent)]`
//! on a struct with exactly one field makes the struct the position of its
//! field (`space::transparent`): no constructor cost, and a view holding the
//! field's handle. It is not the default for one-field structs because a
//! constructor costs 1 in the size-based convention (the run counts of the
//! benchmark specifications in `docs/benchmarks/` rely on it). Derived types also register their `Debug` text
//! (when they have one) for reports of complete unnamed positions.
//!
//! The generated code uses neatcheck's user-facing API (`Enumerable`,
//! `LazyView`, `Lazy`, `space::datatype`, `space::Constructor`...) and, for
//! the rest, the hidden module `neatcheck::__private` (the derive protocol,
//! documented there). Each generated item has one function below; values,
//! patterns and view definitions of a constructor are all spelled by
//! `construct`.

extern crate proc_macro;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2, TokenTree};
use quote::{format_ident, quote};
use syn::{
    parse_macro_input, Data, DeriveInput, Expr, Fields, GenericArgument, GenericParam, Ident, Lit,
    PathArguments, Type,
};

mod rust_expr;

/// Derives `neatcheck::suite::RustExpr`: the expression that rebuilds a
/// value, for exported regression suites (`Type::Variant(fields..)`,
/// `Type { field: .. }`; type parameters must be `RustExpr` too).
#[proc_macro_derive(RustExpr)]
pub fn derive_rust_expr(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match rust_expr::expand(&input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Derives `neatcheck::Enumerable` and `neatcheck::LazyView` (see the crate
/// documentation for the attributes).
#[proc_macro_derive(Enumerable, attributes(enumerable))]
pub fn derive_enumerable(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
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
    kind: Kind,
    fields: Vec<FieldInfo>,
    /// `#[enumerable(skip)]`: in the view type, not in the space.
    skipped: bool,
    /// `#[enumerable(weight = n)]`: its weight in the random phase.
    weight: Option<syn::LitInt>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Named,
    Tuple,
    Unit,
}

/// The parsed input: a struct is one variant named after the type.
struct TypeInfo<'a> {
    input: &'a DeriveInput,
    is_enum: bool,
    variants: Vec<VariantInfo>,
    view_name: Ident,
}

impl TypeInfo<'_> {
    /// The variants in the space, in declaration order: their index is the
    /// tag the search reads.
    fn enumerated(&self) -> impl Iterator<Item = &VariantInfo> {
        self.variants.iter().filter(|v| !v.skipped)
    }

    /// The path of a variant's constructor in `T` (`T::V`, or `T`).
    fn ctor_path(&self, v: &VariantInfo) -> TokenStream2 {
        variant_path(&self.input.ident, self.is_enum, v)
    }

    /// The path of a variant's constructor in the view type.
    fn view_path(&self, v: &VariantInfo) -> TokenStream2 {
        variant_path(&self.view_name, self.is_enum, v)
    }
}

fn variant_path(ty: &Ident, is_enum: bool, v: &VariantInfo) -> TokenStream2 {
    let vn = &v.name;
    if is_enum {
        quote!(#ty::#vn)
    } else {
        quote!(#ty)
    }
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

/// A variant's attributes: whether it is skipped, and its weight.
fn variant_attrs(attrs: &[syn::Attribute]) -> syn::Result<(bool, Option<syn::LitInt>)> {
    let mut skip = false;
    let mut weight = None;
    enumerable_items(attrs, |meta| {
        if meta.path.is_ident("skip") {
            skip = true;
            Ok(())
        } else if meta.path.is_ident("weight") {
            let w: syn::LitInt = meta.value()?.parse()?;
            if w.base10_parse::<u32>().map_or(true, |w| w == 0) {
                return Err(syn::Error::new_spanned(
                    &w,
                    "a weight is a whole number from 1 to 4294967295 (to leave a variant out, \
                     use `#[enumerable(skip)]`)",
                ));
            }
            weight = Some(w);
            Ok(())
        } else {
            Err(meta.error("expected `skip` or `weight = <a whole number>`"))
        }
    })?;
    Ok((skip, weight))
}

fn variant_of(name: &Ident, fields: &Fields) -> syn::Result<VariantInfo> {
    let kind = match fields {
        Fields::Named(_) => Kind::Named,
        Fields::Unnamed(_) => Kind::Tuple,
        Fields::Unit => Kind::Unit,
    };
    let fields = fields
        .iter()
        .map(|f| {
            Ok(FieldInfo {
                name: f.ident.clone(),
                ty: f.ty.clone(),
                with: parse_field_attrs(&f.attrs)?,
            })
        })
        .collect::<syn::Result<_>>()?;
    Ok(VariantInfo {
        name: name.clone(),
        kind,
        fields,
        skipped: false,
        weight: None,
    })
}

fn parse(input: &DeriveInput) -> syn::Result<TypeInfo<'_>> {
    for p in &input.generics.params {
        if let GenericParam::Lifetime(l) = p {
            return Err(syn::Error::new_spanned(
                l,
                "#[derive(Enumerable)] needs a type without lifetime parameters (Enumerable types are 'static)",
            ));
        }
    }
    let variants = match &input.data {
        Data::Struct(s) => vec![variant_of(&input.ident, &s.fields)?],
        Data::Enum(e) => e
            .variants
            .iter()
            .map(|v| {
                let mut info = variant_of(&v.ident, &v.fields)?;
                (info.skipped, info.weight) = variant_attrs(&v.attrs)?;
                Ok(info)
            })
            .collect::<syn::Result<_>>()?,
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(
                u.union_token,
                "#[derive(Enumerable)] does not support unions",
            ))
        }
    };
    Ok(TypeInfo {
        input,
        is_enum: matches!(input.data, Data::Enum(_)),
        variants,
        view_name: format_ident!("{}View", input.ident),
    })
}

/// `#[enumerable(transparent)]` needs a struct with one field of its own
/// type's space.
fn check_transparent(ty: &TypeInfo<'_>, span: Span) -> syn::Result<()> {
    let name = &ty.input.ident;
    let fields = &ty.variants[0].fields;
    if ty.is_enum || fields.len() != 1 {
        let what = if ty.is_enum {
            "an enum".to_string()
        } else {
            format!("a struct with {} fields", fields.len())
        };
        return Err(syn::Error::new(
            span,
            format!(
                "#[enumerable(transparent)] needs a struct with exactly one field \
                 (`{name}` is {what}); derive without it to give each constructor its cost of 1"
            ),
        ));
    }
    if let Some(e) = &fields[0].with {
        return Err(syn::Error::new_spanned(
            e,
            "#[enumerable(transparent)] uses the field type's own space: \
             remove `with` (or the `transparent` attribute)",
        ));
    }
    Ok(())
}

/// The whole output: `impl Enumerable`, the view type and `impl LazyView`.
fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let ty = parse(input)?;
    let transparent = type_transparent(&input.attrs)?;
    if let Some(span) = transparent {
        check_transparent(&ty, span)?;
    }
    let nc = quote!(::neatcheck);
    let view = ViewGenerics::of(&ty);
    let view_ty = view.ty(&ty.view_name);
    let name = &input.ident;
    let (enumerable, view_fn, doc) = if transparent.is_some() {
        let doc = format!(
            "The lazy view of [`{name}`] (transparent): the handle of its field, \
             the same position (reading the view reads nothing)."
        );
        (
            transparent_enumerable(&ty),
            transparent_view_fn(&ty, &view_ty),
            doc,
        )
    } else {
        let doc = format!(
            "The lazy view of [`{name}`]: one constructor read, fields as `neatcheck::Lazy` handles."
        );
        let (describe, force) = (describe_fn(&ty), force_lazy_fn(&ty));
        let unbuild = unbuild_fn(&ty);
        (
            quote!(#describe #force #unbuild),
            view_fn(&ty, &view_ty),
            doc,
        )
    };
    let enumerable = impl_for(input, quote!(#nc::Enumerable), enumerable);
    let view_def = view_type(&ty, &view, &doc);
    let lazy_view = impl_for(
        input,
        quote!(#nc::LazyView),
        quote! {
            type View<'__v> = #view_ty;
            #view_fn
        },
    );
    Ok(quote! {
        #enumerable

        #view_def

        #lazy_view
    })
}

/// `impl<..: Enumerable> Trait for T<..> { body }`.
fn impl_for(input: &DeriveInput, tr: TokenStream2, body: TokenStream2) -> TokenStream2 {
    let name = &input.ident;
    let mut generics = input.generics.clone();
    for p in generics.params.iter_mut() {
        if let GenericParam::Type(t) = p {
            t.bounds.push(syn::parse_quote!(::neatcheck::Enumerable));
        }
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics #tr for #name #ty_generics #where_clause {
            #body
        }
    }
}

/// The constructor `head` applied to one item per field, in the variant's
/// syntax: `head`, `head(a, b)` or `head { x: a, y: b }`. Spells the values,
/// the patterns and the view's definitions; `prefix` comes before each
/// member (attributes and visibility of a definition's fields).
fn construct(
    head: TokenStream2,
    v: &VariantInfo,
    items: impl IntoIterator<Item = TokenStream2>,
    prefix: impl Fn(&FieldInfo) -> TokenStream2,
) -> TokenStream2 {
    let items = items.into_iter();
    let prefixes = v.fields.iter().map(prefix);
    match v.kind {
        Kind::Unit => quote!(#head),
        Kind::Tuple => quote!(#head(#(#prefixes #items),*)),
        Kind::Named => {
            let names = v.fields.iter().map(|f| f.name.as_ref().unwrap());
            quote!(#head { #(#prefixes #names: #items),* })
        }
    }
}

/// No prefix (values and patterns).
fn bare(_: &FieldInfo) -> TokenStream2 {
    quote!()
}

/// `Enumerable::describe`: the printers, then one `Constructor` per
/// variant in the space.
fn describe_fn(ty: &TypeInfo<'_>) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let show = show_types(ty);
    let ctors = ty.enumerated().map(|v| {
        let vname = v.name.to_string();
        let spaces = v.fields.iter().map(|f| {
            let fty = &f.ty;
            match &f.with {
                Some(e) => quote!(#nc::space::field_with::<#fty>(#e)),
                None => quote!(#nc::space::field::<#fty>()),
            }
        });
        let takes = v.fields.iter().map(|f| {
            let fty = &f.ty;
            quote!(__f.take::<#fty>())
        });
        let build = construct(ty.ctor_path(v), v, takes, bare);
        let build = quote!(|__f: &mut #nc::space::Fields<'_>| #build);
        let ctor = if v.kind == Kind::Named {
            let names = v
                .fields
                .iter()
                .map(|f| f.name.as_ref().unwrap().to_string());
            quote!(#nc::space::Constructor::named(#vname, vec![#((#names, #spaces)),*], #build,))
        } else {
            quote!(#nc::space::Constructor::new(#vname, vec![#(#spaces),*], #build,))
        };
        match &v.weight {
            Some(w) => quote!(#ctor.weight(#w)),
            None => ctor,
        }
    });
    quote! {
        fn describe() -> #nc::Space<Self> {
            #show
            #nc::space::datatype(vec![#(#ctors),*])
        }
    }
}

/// `Enumerable::__unbuild`: the variant's node, each field taken apart by
/// its own type at its slot (see `neatcheck::__private::Unbuild`); a
/// skipped variant has no tree.
fn unbuild_fn(ty: &TypeInfo<'_>) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let p = quote!(#nc::__private);
    let mut tag = 0u32;
    let arms = ty.variants.iter().map(|v| {
        let vars: Vec<_> = (0..v.fields.len())
            .map(|i| format_ident!("__f{}", i))
            .collect();
        let pattern = construct(ty.ctor_path(v), v, vars.iter().map(|x| quote!(#x)), bare);
        if v.skipped {
            return quote!(#pattern => ::core::option::Option::None,);
        }
        let t = tag;
        tag += 1;
        quote! {
            #pattern => __at.node(
                #t,
                &mut [#(&mut |__u| #nc::Enumerable::__unbuild(#vars, __u)),*],
            ),
        }
    });
    let arms: Vec<_> = arms.collect();
    let body = if arms.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#arms)* })
    };
    quote! {
        #[allow(unused_variables)]
        fn __unbuild(&self, __at: #p::Unbuild<'_>) -> ::core::option::Option<#p::Tree> {
            if !__at.holds::<Self>() {
                return ::core::option::Option::None;
            }
            #body
        }
    }
}

/// Registers the `Debug` printers of `Self` and of the field types that are
/// `Debug` where the derive expands (reports print complete values of
/// unnamed alternatives, such as a field's custom space, through them).
fn show_types(ty: &TypeInfo<'_>) -> TokenStream2 {
    let p = quote!(::neatcheck::__private);
    let types = ty.enumerated().flat_map(|v| v.fields.iter().map(|f| &f.ty));
    // The double reference selects `ShowDebug` when the type is `Debug`
    // (autoref specialisation).
    quote! {
        #[allow(clippy::needless_borrow)]
        let _ = {
            #[allow(unused_imports)]
            use #p::{ShowDebug as _, ShowNone as _};
            (&&#p::Show::<Self>::new()).register_printer();
            #( (&&#p::Show::<#types>::new()).register_printer(); )*
        };
    }
}

/// `Enumerable::force_lazy`: typed, one match arm per constructor; the
/// generic materialiser for positions of another space and past the depth
/// limit.
fn force_lazy_fn(ty: &TypeInfo<'_>) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let p = quote!(#nc::__private);
    let arms = ty.enumerated().enumerate().map(|(tag, v)| {
        let tag = tag as u32;
        let values = v.fields.iter().enumerate().map(|(i, f)| {
            let (fty, i) = (&f.ty, i as u32);
            let handle = quote!(#p::field::<#fty, _>(__lazy, __first, #i));
            if f.with.is_some() {
                quote!(#handle.force_generic())
            } else {
                quote!(<#fty as #nc::Enumerable>::force_lazy(#handle))
            }
        });
        let build = construct(ty.ctor_path(v), v, values, bare);
        quote!(#tag => #build,)
    });
    // A type without fields materialises no nested value: it needs no
    // depth guard (a thread-local counter).
    let guard = if ty.enumerated().all(|v| v.fields.is_empty()) {
        quote!()
    } else {
        quote! {
            let Some(__guard) = #p::DepthGuard::enter() else {
                return __lazy.force_generic();
            };
        }
    };
    quote! {
        #[allow(unused_variables)]
        fn force_lazy(__lazy: #nc::Lazy<'_, Self>) -> Self {
            if !#p::is_canonical(__lazy) {
                return __lazy.force_generic();
            }
            #guard
            let (__tag, __first) = #p::open(__lazy);
            match __tag {
                #(#arms)*
                _ => unreachable!("neatcheck: unknown constructor tag"),
            }
        }
    }
}

/// `LazyView::view`: reads the constructor and hands out its fields'
/// handles (checked ones for fields with a space of their own).
fn view_fn(ty: &TypeInfo<'_>, view_ty: &TokenStream2) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let p = quote!(#nc::__private);
    let arms = ty.enumerated().enumerate().map(|(tag, v)| {
        let tag = tag as u32;
        let handles = v.fields.iter().enumerate().map(|(i, f)| {
            let i = i as u32;
            if f.with.is_some() {
                // Its position holds another space than the type's own:
                // read with every read checked.
                let fty = &f.ty;
                return quote!(#p::checked(#p::field::<#fty, _>(__lazy, __first, #i)));
            }
            let target = boxed_inner(&f.ty).unwrap_or(&f.ty);
            quote!(#p::field::<#target, _>(__lazy, __first, #i))
        });
        let build = construct(ty.view_path(v), v, handles, bare);
        quote!(#tag => #build,)
    });
    let any_field = ty.variants.iter().any(|v| !v.fields.is_empty());
    let unused_first = if any_field {
        quote!()
    } else {
        quote!(let _ = __first;)
    };
    quote! {
        #[inline]
        #[allow(unused_variables)]
        fn view<'__v>(__lazy: #nc::Lazy<'__v, Self>) -> #view_ty {
            let (__tag, __first) = #p::open(__lazy);
            #unused_first
            match __tag {
                #(#arms)*
                _ => unreachable!("neatcheck: unknown constructor tag"),
            }
        }
    }
}

/// `#[enumerable(transparent)]`: the struct is the very position of its one
/// field (no constructor cost, no node).
fn transparent_enumerable(ty: &TypeInfo<'_>) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let p = quote!(#nc::__private);
    let v = &ty.variants[0];
    let fty = &v.fields[0].ty;
    let build = construct(ty.ctor_path(v), v, [quote!(__x)], bare);
    let pattern = construct(ty.ctor_path(v), v, [quote!(__x)], bare);
    let show = show_types(ty);
    quote! {
        fn describe() -> #nc::Space<Self> {
            #show
            #nc::space::transparent(|__x: #fty| #build)
        }
        fn force_lazy(__lazy: #nc::Lazy<'_, Self>) -> Self {
            let __inner = #p::transparent_field::<#fty, _>(__lazy);
            if <#fty as #nc::Enumerable>::__canonical_at(__inner) {
                let __x = <#fty as #nc::Enumerable>::force_lazy(__inner);
                #build
            } else {
                __lazy.force_generic()
            }
        }
        fn __canonical_at(__lazy: #nc::Lazy<'_, Self>) -> bool {
            <#fty as #nc::Enumerable>::__canonical_at(#p::transparent_field::<#fty, _>(__lazy))
        }
        fn __position_type() -> ::core::any::TypeId {
            <#fty as #nc::Enumerable>::__position_type()
        }
        fn __unbuild(&self, __at: #p::Unbuild<'_>) -> ::core::option::Option<#p::Tree> {
            let #pattern = self;
            <#fty as #nc::Enumerable>::__unbuild(__x, __at)
        }
    }
}

/// The view of a transparent struct holds its field's handle (reads
/// nothing).
fn transparent_view_fn(ty: &TypeInfo<'_>, view_ty: &TokenStream2) -> TokenStream2 {
    let nc = quote!(::neatcheck);
    let v = &ty.variants[0];
    let fty = &v.fields[0].ty;
    let target = boxed_inner(fty).unwrap_or(fty);
    let handle = quote!(#nc::__private::transparent_field::<#target, _>(__lazy));
    let build = construct(ty.view_path(v), v, [handle], bare);
    quote! {
        #[inline(always)]
        fn view<'__v>(__lazy: #nc::Lazy<'__v, Self>) -> #view_ty {
            #build
        }
    }
}

/// The generic parameters of the view type: `'a` if any variant has a
/// field, and the type and const parameters the fields mention.
struct ViewGenerics {
    /// As declared: `'a, T: Enumerable, const N: usize`.
    params: Vec<TokenStream2>,
    /// As used in `LazyView::View<'__v>`: `'__v, T, N`.
    args: Vec<TokenStream2>,
}

impl ViewGenerics {
    fn of(ty: &TypeInfo<'_>) -> Self {
        let nc = quote!(::neatcheck);
        let fields = ty.variants.iter().flat_map(|v| v.fields.iter());
        let field_tokens: TokenStream2 = fields.map(|f| &f.ty).map(|t| quote!(#t)).collect();
        let mut params = vec![];
        let mut args = vec![];
        if ty.variants.iter().any(|v| !v.fields.is_empty()) {
            params.push(quote!('a));
            args.push(quote!('__v));
        }
        for p in &ty.input.generics.params {
            match p {
                GenericParam::Type(t) if mentions(field_tokens.clone(), &t.ident) => {
                    let id = &t.ident;
                    params.push(quote!(#id: #nc::Enumerable));
                    args.push(quote!(#id));
                }
                GenericParam::Const(c) if mentions(field_tokens.clone(), &c.ident) => {
                    let (id, cty) = (&c.ident, &c.ty);
                    params.push(quote!(const #id: #cty));
                    args.push(quote!(#id));
                }
                _ => {}
            }
        }
        ViewGenerics { params, args }
    }

    /// `<'a, T: Enumerable, ..>` for the view's definition.
    fn declared(&self) -> TokenStream2 {
        let params = &self.params;
        if params.is_empty() {
            quote!()
        } else {
            quote!(<#(#params),*>)
        }
    }

    /// `TView<'__v, T, ..>`.
    fn ty(&self, view_name: &Ident) -> TokenStream2 {
        let args = &self.args;
        if args.is_empty() {
            quote!(#view_name)
        } else {
            quote!(#view_name<#(#args),*>)
        }
    }
}

/// The view type: an enum or struct of `T`'s shape with `Lazy` fields.
fn view_type(ty: &TypeInfo<'_>, generics: &ViewGenerics, doc: &str) -> TokenStream2 {
    let vis = &ty.input.vis;
    let view_name = &ty.view_name;
    let params = generics.declared();
    let lazy_of = |f: &FieldInfo| {
        // A field with a space of its own is a handle of the field's type
        // whose reads check the position (the grammar is not trusted).
        let target = match f.with {
            Some(_) => &f.ty,
            None => boxed_inner(&f.ty).unwrap_or(&f.ty),
        };
        quote!(::neatcheck::Lazy<'a, #target>)
    };
    if ty.is_enum {
        let variants = ty.variants.iter().map(|v| {
            let vdoc = format!("The view of `{}::{}`.", ty.input.ident, v.name);
            let vn = &v.name;
            let shape = construct(quote!(#vn), v, v.fields.iter().map(lazy_of), bare);
            quote!(#[doc = #vdoc] #shape)
        });
        return quote! {
            #[doc = #doc]
            #[allow(dead_code, non_camel_case_types)]
            #[derive(Debug, Clone, Copy)]
            #vis enum #view_name #params { #(#variants),* }
        };
    }
    let v = &ty.variants[0];
    let member = |f: &FieldInfo| match &f.name {
        Some(n) => {
            let fdoc = format!("The field `{n}`.");
            quote!(#[doc = #fdoc] pub)
        }
        None => quote!(pub),
    };
    let body = construct(quote!(), v, v.fields.iter().map(lazy_of), member);
    let end = if v.kind == Kind::Named {
        quote!()
    } else {
        quote!(;)
    };
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        #[derive(Debug, Clone, Copy)]
        #vis struct #view_name #params #body #end
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(src: &str) -> String {
        let input: DeriveInput = syn::parse_str(src).unwrap();
        match expand(&input) {
            Ok(_) => panic!("`{src}` expanded"),
            Err(e) => e.to_string(),
        }
    }

    fn expansion_of(src: &str) -> String {
        let input: DeriveInput = syn::parse_str(src).unwrap();
        expand(&input).unwrap().to_string()
    }

    #[test]
    fn misuses_are_named_in_the_error() {
        let cases = [
            (
                "#[enumerable(transparent)] enum E { A(u8) }",
                "(`E` is an enum)",
            ),
            (
                "#[enumerable(transparent)] struct P(u8, u8);",
                "a struct with 2 fields",
            ),
            (
                "#[enumerable(transparent)] struct U;",
                "a struct with 0 fields",
            ),
            (
                "#[enumerable(transparent)] struct W(#[enumerable(with = s())] u8);",
                "remove `with`",
            ),
            ("struct R<'a>(&'a u8);", "without lifetime parameters"),
            ("union X { a: u8 }", "does not support unions"),
            ("enum E { #[enumerable(sikp)] A }", "expected `skip`"),
            (
                "enum E { #[enumerable(weight = 0)] A, B }",
                "a weight is a whole number",
            ),
            (
                "enum E { #[enumerable(weight = \"2\")] A }",
                "expected integer",
            ),
            (
                "struct S(#[enumerable(width = s())] u8);",
                "expected `with = ",
            ),
            (
                "#[enumerable(transparant)] struct S(u8);",
                "expected `transparent`",
            ),
        ];
        for (src, wanted) in cases {
            let error = error_of(src);
            assert!(error.contains(wanted), "`{src}`: {error}");
        }
    }

    #[test]
    fn constructors_are_spelled_in_their_variants_syntax() {
        let input: DeriveInput = syn::parse_str("enum E { U, T(u8, bool), N { x: u8 } }").unwrap();
        let ty = parse(&input).unwrap();
        let spelled: Vec<String> = ty
            .variants
            .iter()
            .map(|v| {
                let items = v.fields.iter().map(|f| {
                    let t = &f.ty;
                    quote!(#t::MAX)
                });
                construct(ty.ctor_path(v), v, items, bare).to_string()
            })
            .collect();
        assert_eq!(
            spelled,
            [
                "E :: U",
                "E :: T (u8 :: MAX , bool :: MAX)",
                "E :: N { x : u8 :: MAX }"
            ]
        );
    }

    #[test]
    fn skipped_variants_are_viewed_but_not_enumerated() {
        let out = expansion_of("enum E { A(u8), #[enumerable(skip)] B(String), C }");
        assert!(out.contains("Constructor :: new (\"A\""), "{out}");
        assert!(!out.contains("Constructor :: new (\"B\""), "{out}");
        // Tags count the enumerated variants only: `C` is tag 1.
        assert!(out.contains("1u32 => E :: C"), "{out}");
        assert!(out.contains("1u32 => EView :: C"), "{out}");
        assert!(
            out.contains("B (:: neatcheck :: Lazy < 'a , String >)"),
            "{out}"
        );
    }

    #[test]
    fn with_fields_are_viewed_checked_and_forced_generically() {
        let out = expansion_of("struct S { #[enumerable(with = s())] a: Box<u8>, b: Box<u8> }");
        let p = ":: neatcheck :: __private ::";
        let checked =
            format!("a : {p} checked ({p} field :: < Box < u8 > , _ > (__lazy , __first , 0u32))");
        assert!(out.contains(&checked), "{out}");
        // A plain `Box` field is viewed as the boxed type's handle.
        assert!(
            out.contains(&format!(
                "b : {p} field :: < u8 , _ > (__lazy , __first , 1u32)"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "a : {p} field :: < Box < u8 > , _ > (__lazy , __first , 0u32) . force_generic ()"
            )),
            "{out}"
        );
    }

    #[test]
    fn views_declare_only_the_parameters_their_fields_use() {
        let out =
            expansion_of("enum E<A, B, const N: usize> { X([A; N]), #[enumerable(skip)] Y(B), Z }");
        assert!(out.contains("enum EView < 'a , A : :: neatcheck :: Enumerable , B : :: neatcheck :: Enumerable , const N : usize >"), "{out}");
        let out = expansion_of("enum E<A, B> { X(A), Z }");
        assert!(
            out.contains("enum EView < 'a , A : :: neatcheck :: Enumerable >"),
            "{out}"
        );
        assert!(
            out.contains("type View < '__v > = EView < '__v , A >"),
            "{out}"
        );
        let out = expansion_of("enum E<A> { Z }");
        assert!(out.contains("enum EView {"), "{out}");
        assert!(out.contains("type View < '__v > = EView ;"), "{out}");
    }
}
